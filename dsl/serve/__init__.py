"""`paili serve`: a local HTTP service (FastAPI on uvicorn) for the rule sets it is started with — the help
pages with an interactive calculator on each player's page, a replay viewer for game logs, and a JSON API
(score, waits, describe, check a rule file, play games, open a log). `/openapi.json` is the reference for
the API. Split by concern: `app` (the application, its error answers), `bodies` (the size and JSON
limits of request bodies), `models` (request validation), `library` (the rule sets served), `api` (the
JSON handlers), `games` (games kept in memory), `replay` (logs as steps an onlooker sees), `pages`
(the pages and their calculator), `command` (the command line).

The service uses the public face of the runtime (Rules, Game, the log replay) and the page generator;
FastAPI and uvicorn are the optional extra `serve` (`pip install "paili[serve]"`)."""
