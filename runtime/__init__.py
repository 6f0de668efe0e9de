"""paili runtime: executes a compiled rule set (dsl.ir.RuleSet). Knows mahjong-family mechanics in
general, never a particular variant."""
