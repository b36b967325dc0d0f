"""How long the kit waits, scaled by how slow this machine is right now (issue 38).

Every wait of the kit (a server's start-up, an answer, a notification due "within N
seconds", its own fake's control API) is a time a quiet machine needs, multiplied by
:func:`scale`. The run measures the scale once at its start (:func:`calibrate`: a fixed piece
of CPU work, timed against what it takes on a quiet machine) and hands it to every worker;
on a busy CI runner the waits grow with the load instead of turning it into failures.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import time

__all__ = ["ENV", "calibrate", "scale", "scaled"]

#: the scale a run measured, as its workers and server pools read it
ENV = "ODOO_MCP_KIT_TIME_SCALE"

#: what :func:`_work` takes on a quiet machine (2-core CI runner class, median of 5); a third
#: of what it was (a run's calibration was 0.1 CPU-s, a fifth of a scoped batch run's cost)
_QUIET_SECONDS = 0.008
#: waits never shrink below what the target and the features say, and never grow past this
_MAX_SCALE = 20.0


def _work() -> float:
    """A fixed mix of what the kit and a Python server do: JSON and hashing, no I/O."""
    start = time.perf_counter()
    data = {"rows": [{"id": n, "name": f"partner {n}", "tags": list(range(8))} for n in range(60)]}
    digest = b""
    for _ in range(20):
        text = json.dumps(data).encode()
        digest = hashlib.sha256(text + digest).digest()
        json.loads(text)
    return time.perf_counter() - start


def calibrate(samples: int = 5) -> float:
    """This machine's slowness now: the median of ``samples`` timings of a fixed workload
    over its quiet time, at least 1 (a fast machine keeps the stated waits).

    The timings stop once more than half of ``samples`` took no more than the quiet time: the
    median is then quiet whatever the others take, and the scale 1 (a quiet machine pays the
    least)."""
    timings: list[float] = []
    for _ in range(samples):
        timings.append(_work())
        if 2 * sum(taken <= _QUIET_SECONDS for taken in timings) > samples:
            return 1.0
    median = statistics.median(timings)
    return round(min(max(median / _QUIET_SECONDS, 1.0), _MAX_SCALE), 2)


def scale() -> float:
    """The run's scale (1 when none was measured: a scoped session run by a test)."""
    try:
        value = float(os.environ.get(ENV, "1"))
    except ValueError:
        return 1.0
    return min(max(value, 1.0), _MAX_SCALE)


def scaled(seconds: float) -> float:
    """``seconds`` of a quiet machine, on this one."""
    return seconds * scale()
