"""Engines that run the pure audit somewhere other than this process: `ray_engine` runs it on a
Ray cluster (`cli.py audit --engine ray`). Ray is an optional extra (requirements-ray.txt) and is
imported only when such an engine is chosen; nothing below this layer imports it."""
