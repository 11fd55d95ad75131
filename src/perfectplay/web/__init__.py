"""The perfectplay web app: FastAPI routes, engine pool and saved-game storage."""
