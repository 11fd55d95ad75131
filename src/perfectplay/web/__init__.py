"""The perfectplay web app (``perfectplay serve``).

One process serves pages and JSON; searches run in separate engine processes::

    browser ──HTTP──► uvicorn / FastAPI (app.py assembles routes_api, routes_pages, limits)
                          │  every request is checked in boundary.py through
                          │  perfectplay.api (games from the registry, what they offer from
                          │  their kits' capabilities) and answered with perfectplay.contract's
                          │  JSON, or a 4xx JSON error
                          ├─► store.py: SQLite file of saved games (WAL, one transaction
                          │             per write, schema created and migrated here)
                          └─► pool.py: bounded pool of worker processes (worker.py) that
                                       run jobs.py with a per-request time cap

Pages are Jinja2 templates (``templates/``) with plain JavaScript modules (``static/``); the
scripts hold no game rules and no game names: the server says which games there are and what
they offer (``GET /api/meta/games``, also in every page), which moves are legal, where the
pieces are and how a game ended. A game installed as a plug-in that declares a board is
served, drawn and played like the built-in ones.
"""
