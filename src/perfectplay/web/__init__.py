"""The perfectplay web app (``perfectplay serve``).

One process serves pages and JSON; searches run in separate engine processes::

    browser ──HTTP──► uvicorn / FastAPI (app.py: routes_api, routes_pages, errors, limits)
                          │  validates every request through perfectplay.api / notation
                          │  (positions.py), answers bad input with a 4xx JSON error
                          ├─► store.py: SQLite file of saved games (WAL, one transaction
                          │             per write, schema created and migrated here)
                          └─► pool.py: bounded pool of worker processes (worker.py) that
                                       run jobs.py with a per-request time cap

Pages are Jinja2 templates (``templates/``) with plain JavaScript modules (``static/``); the
scripts hold no game rules: the server says which moves are legal and how a game ended.
"""
