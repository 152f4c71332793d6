"""`make loadtest`'s CPU accounting (loadtest/cpu.py): a process's CPU time from /proc, and the CPU per request of
a phase from the samples around it."""

from __future__ import annotations

import os

import pytest

from loadtest import cpu

pytestmark = pytest.mark.skipif(not cpu.Sampler.available(), reason="no /proc here: the load run prints no table")


def test_a_process_cpu_time_is_read_and_a_gone_process_has_none() -> None:
    sum(i * i for i in range(200_000))  # some CPU of our own
    assert cpu._cpu(os.getpid()) > 0
    assert cpu._cpu(2**22 + 1) == 0.0  # above Linux's largest pid
    assert cpu._machine() > 0


def test_a_phases_cpu_per_request_is_the_samples_difference_over_its_requests() -> None:
    sampler = cpu.Sampler({"web": [os.getpid()]})
    sampler.samples = [(9.0, {"web": 0.0, "machine": 0.0}), (10.0, {"web": 1.0, "machine": 4.0}),
                       (12.0, {"web": 2.0, "machine": 7.0}), (14.0, {"web": 3.0, "machine": 10.0})]  # fmt: skip
    # 10..14 s sampled of the phase 10..15 s: 4/5 of its 500 requests used 2 s of the workers' CPU, 6 s of the machine's
    assert sampler.per_request(10.0, 15.0, 500) == {"web": 5.0, "machine": 15.0}
    assert sampler.per_request(10.0, 15.0, 0) is None
    assert sampler.per_request(12.5, 13.5, 100) is None  # no two samples inside
