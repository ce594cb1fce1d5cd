"""The Hypothesis profiles (support.register_profiles, loaded by conftest.py): CI cannot fail on the
machine's speed, and stays strict."""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import FailedHealthCheck

from support import FUZZ_SCALE, examples, register_profiles


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="checks the ci profile")
def test_the_ci_profile_is_the_default_and_reproducible() -> None:
    current = settings()  # the active profile's values
    assert settings.get_current_profile_name() == "ci"
    assert current.derandomize and current.database is None and current.print_blob
    assert current.deadline is None
    # Only the checks that measure the machine are off; the ones about strategies stay on.
    assert set(current.suppress_health_check) == {HealthCheck.too_slow, HealthCheck.data_too_large}
    assert examples(40) == 40


def test_the_profiles_are_registered() -> None:
    dev, fuzz = settings.get_profile("dev"), settings.get_profile("fuzz")
    assert not dev.derandomize and dev.deadline is None
    assert fuzz.max_examples == 100 * FUZZ_SCALE and not fuzz.derandomize
    assert HealthCheck.filter_too_much not in fuzz.suppress_health_check


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="checks the ci profile")
def test_slow_input_generation_cannot_fail_ci() -> None:
    # Issue 8: test_ruleset_round_trip once failed with "input generation is slow" on a loaded
    # machine. Generation slower than Hypothesis's default allows (1 s for the first ten inputs)
    # passes under the ci profile, and fails under Hypothesis's own defaults.
    @st.composite
    def slow_numbers(draw: st.DrawFn) -> int:
        time.sleep(0.25)
        return draw(st.integers(0, 9))

    def run(parent: settings) -> list[int]:
        drawn: list[int] = []

        @settings(parent, max_examples=6, database=None)
        @given(slow_numbers())
        def slow(number: int) -> None:
            drawn.append(number)

        slow()
        return drawn

    assert len(run(settings())) >= 6
    with pytest.raises(FailedHealthCheck, match="Input generation is slow"):  # so the test is one
        run(settings.get_profile("default"))


def test_the_profiles_do_not_inherit_the_loaded_one() -> None:
    # The CI run of 2026-11-22 failed here: with CI=true in the environment Hypothesis loads its
    # own derandomized profile before conftest.py runs, and "dev" registered without a parent
    # inherited derandomize=True from it.
    settings.register_profile("derandomized-probe", derandomize=True, database=None)
    settings.load_profile("derandomized-probe")
    try:
        register_profiles()
        dev, fuzz = settings.get_profile("dev"), settings.get_profile("fuzz")
        assert not dev.derandomize and not fuzz.derandomize
        assert dev.database is not None
    finally:
        register_profiles()  # reloads $HYPOTHESIS_PROFILE
    assert settings.get_current_profile_name() == os.environ.get("HYPOTHESIS_PROFILE", "ci")
