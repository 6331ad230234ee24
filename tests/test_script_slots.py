"""rankviz.ui.script_slots: at most N script runs at once in a server process, the rest in line."""

from __future__ import annotations

import threading
import time

import pytest

from rankviz.ui.script_slots import DEFAULT_SLOTS, script_slot, slots_from_environment


def test_no_more_runs_at_once_than_slots_and_all_of_them_run():
    slots = threading.BoundedSemaphore(2)
    inside, most, done = 0, 0, []
    lock = threading.Lock()

    def run(number):
        nonlocal inside, most
        with script_slot(slots):
            with lock:
                inside += 1
                most = max(most, inside)
            time.sleep(0.02)
            with lock:
                inside -= 1
            done.append(number)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert most == 2 and sorted(done) == list(range(12))


def test_a_run_that_stops_early_gives_its_slot_back():
    slots = threading.BoundedSemaphore(1)

    class StopException(Exception):  # what st.stop and a rerun raise through the script
        pass

    with pytest.raises(StopException):
        with script_slot(slots):
            raise StopException
    assert slots.acquire(timeout=1)  # free again


def test_slots_setting_from_the_environment():
    assert slots_from_environment({}) == DEFAULT_SLOTS == 1
    assert slots_from_environment({"RANKVIZ_SCRIPT_SLOTS": " 3 "}) == 3
    for bad in ("0", "-1", "two", "1.5"):
        with pytest.raises(ValueError, match="RANKVIZ_SCRIPT_SLOTS must be a whole number >= 1"):
            slots_from_environment({"RANKVIZ_SCRIPT_SLOTS": bad})
