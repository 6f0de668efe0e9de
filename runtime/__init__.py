"""paili runtime: executes a compiled rule set (runtime.ir.nodes.RuleSet). Knows mahjong-family mechanics in
general, never a particular variant."""
