"""The tiny Gomocup brain of gomocup_engine.py, taking a table of ``INFO max_memory`` bytes
as Rapfi does (it answers ERROR, and loses, when the table does not fit its sandbox)."""

import runpy
from pathlib import Path

runpy.run_path(
    str(Path(__file__).with_name("gomocup_engine.py")),
    init_globals={"TABLE": True},
    run_name="__main__",
)
