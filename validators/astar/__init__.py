"""A* search traces: the `maze` and `sokoban` domains (SearchFormer and Beyond-Semantics traces).

What is checked: every create/close step against A* (bounds, walls, successors of the expanded
node, open and closed lists, minimal f, g and h, complete expansion, goal closed last), then the
plan. Sources: SearchFormer (facebookresearch/searchformer `astar.py`, `maze.py`, `sokoban.py`;
Lehnert et al. 2024) and the Beyond-Semantics checker (kstechly/beyond-semantics-maze-visualizer),
as summarised in reference-semantics.md sections 1-2.

* `maze.py`, `sokoban.py`: the two domains' replays (`domains.py` registers them);
  `_maze_replay.py`: the step-by-step A* rule checks shared by both.
* `maze_problem.py`: a maze problem read from the record or the trace.
* `sokoban_core.py`: Sokoban levels, moves, heuristic and reference A*.
* `reference.py`: reference A* in both dialects and record generation (tests, demo, benchmarks);
  `faults.py`: seeded single faults in reference traces.
"""
