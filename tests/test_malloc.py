"""Freed large blocks go back to the system once :func:`return_large_blocks` ran (issue 20,
item 7: each state of a growing 20 MB reply left its pages resident).

Each case runs in a fresh interpreter: glibc's threshold is process-wide and only moves
up, so the test process's own history would decide the outcome.
"""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

_PROBE = """
import sys
from desktop_agent._malloc import return_large_blocks

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

if sys.argv[1] == "tuned":
    assert return_large_blocks()
    assert return_large_blocks()  # once per process; later calls say it is set
earlier = b"x" * (20 << 20)  # an earlier, longer state of a reply, freed
del earlier
before = rss_mb()
state = b"y" * (10 << 20)  # a later block, freed too
del state
print(rss_mb() - before)
"""

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="glibc's malloc is the one tuned",
)


def _resident_after_free(mode: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, mode], capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip())


def test_a_freed_large_block_is_returned_to_the_system() -> None:
    assert _resident_after_free("tuned") < 2.0


def test_without_it_glibc_keeps_the_block_resident() -> None:
    # What the fix is for: the default, dynamic threshold keeps the 10 MB block.
    assert _resident_after_free("default") > 8.0
