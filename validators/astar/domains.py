"""The A* domains: `maze` (maze.py) and `sokoban` (sokoban.py)."""

from validators.astar.maze import DOMAIN as MAZE
from validators.astar.sokoban import DOMAIN as SOKOBAN

DOMAINS = (MAZE, SOKOBAN)
