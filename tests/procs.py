"""What a test reads of a running process on Linux (/proc)."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path


def nice_of(pid: int) -> dict[int, int]:
    """Each thread's nice value (Linux: the 19th field of /proc/PID/task/TID/stat)."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with suppress(OSError):  # a thread that ended meanwhile
            found[int(task.name)] = int((task / "stat").read_text().rsplit(")", 1)[1].split()[16])
    return found
