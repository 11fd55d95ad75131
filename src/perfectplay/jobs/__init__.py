"""Batch jobs: many positions of one game solved by long-lived workers, on this machine
(a process pool) or on a Ray cluster, written to a journal that a later run can resume.

- :mod:`.tasks`: what a job is (a frozen, picklable description), a task, an answer.
- :mod:`.lines`: input lines (``position`` or ``position score``) read into positions.
- :mod:`.worker`: one worker's state (the game, its compiled kernel and table, kept across
  tasks) and how it answers a task.
- :mod:`.local`: the process-pool executor; :mod:`.ray_pool`: the Ray executor.
- :mod:`.journal`: the append-only output that ``--resume`` trusts.
- :mod:`.books`: opening books built through the same executors, checkpointed as they go.
"""
