"""The lecture-hall reveal: a worked solution shown one step at a time, the way slides build it.

A lecturer presses Next (or PageDown, what a presentation clicker sends) and the next row of the
working appears under its stage heading ("Step 2: DCG"); a sum still being built shows the terms
revealed so far ("DCG = 7 + 1.893 + …"). How many steps are shown is kept in the link (one
row of :mod:`rankviz.ui.url_keys` per page), so a shared link opens at the same step.

A step belongs to the exercise it was reached on. The graded, precision-recall and correlation
pages share one URL key (``step``), and a session keeps it while the lecturer moves on: without
a check, step 9 of the nDCG working opened the AP working of another page at step 9, the answer
shown before it was asked. So each reveal names its exercise (the kind and its inputs), and a
step carried in the session from another exercise (another page, ranking or setting) starts
again at 0. A step read from a link (a fresh session, or Back/Forward) is kept: the app wrote
that link together with the inputs of the exercise the step was reached on.
"""

from __future__ import annotations

import json

import streamlit as st

from rankviz.i18n import N_, _, ngettext
from rankviz.teaching.homework import stages, steps_for
from rankviz.teaching.homework.core import tex_number
from rankviz.ui.cached_results import cached_call
from rankviz.ui.link import current_value, keep_in_link

__all__ = ["reveal_exercise", "reveal_section", "reveal_working", "revealed_count"]


def revealed_count(key: str, total: int) -> int:
    """How many steps the reveal of ``key`` shows, from the session or the link, within 0..``total``."""
    text = str(current_value(key, "0") or "0").strip()
    try:
        count = int(text)
    except ValueError:
        count = 0
    return min(max(count, 0), total)


_STEP_OWNER = "_reveal_step_owner"  # {reveal key: the exercise its step was reached on}


def _keep_step_to_its_exercise(key: str, exercise: str) -> None:
    """Start the reveal of ``key`` again at step 0 when the step the session holds was reached on
    another exercise (see the module docstring).

    A value in the session was drawn by a reveal in an earlier run; a value not in it is read from
    the link this run (a fresh session, or Back/Forward, where ``rankviz.ui.link.follow_link``
    forgot it), and belongs to the exercise that link opens.
    """
    owners = st.session_state.setdefault(_STEP_OWNER, {})
    if key in st.session_state and owners.get(key, exercise) != exercise:
        st.session_state[key] = "0"
    owners[key] = exercise


_MOVED = "_reveal_moved"  # the reveal whose buttons (or PageDown / PageUp) started this run


def _move(key: str, to: int) -> None:
    st.session_state[key] = str(to)
    st.session_state[_MOVED] = key


# Each move brings the row it revealed into view (and the sum being built under it): from about
# step 6 the new row is below the fold of a 1280x800 projector, and a clicker has only PageDown and
# PageUp, which the reveal answers. Streamlit scrolls inside its main block; scrollIntoView finds
# it. The script waits for the run's rows to be drawn (the row's label in its place), and the
# margins keep the row clear of the fixed top bar and the screen's edge.
_BRING_INTO_VIEW_JS = """
<div class="rv-sr-only"><script>
(() => {
  const rows = ROWS, step = STEP, label = LABEL;
  let tries = 0;
  const bring = () => {
    const box = document.querySelector('.st-key-' + rows);
    const all = box ? [...box.querySelectorAll('tbody tr')] : [];
    const row = all[step - 1];
    const drawn = row && row.cells[0] && row.cells[0].textContent.trim() === label;
    if (!drawn && tries++ < 40) { setTimeout(bring, 75); return; }
    if (!row) return;
    const last = all[all.length - 1];
    for (const el of (last === row ? [row] : [last, row])) {
      el.style.scrollMarginTop = '5rem';
      el.style.scrollMarginBottom = '1.5rem';
      el.scrollIntoView({block: 'nearest', behavior: 'instant'});
    }
  };
  requestAnimationFrame(bring);
})();
</script></div>
"""


def _cell(formula: str) -> str:
    # A formula in a Markdown table cell: a bar would end the cell; display style keeps fractions legible
    # from the back of a lecture hall.
    return r"$\displaystyle " + formula.replace("|", r"\vert ") + "$"


def _partial(step, steps, shown: int) -> str | None:
    """A sum whose terms are partly revealed, as the slide writes it while filling in: "7 + 1.893 + …"."""
    if step.rule != "sum" or step.scale != 1.0:
        return None
    terms = [tex_number(steps[i].expected) for i in step.uses if i < shown]
    if not terms or len(terms) == len(step.uses):
        return None
    return " + ".join(terms) + r" + \dots"


_WORKED_SOLUTION = N_("Worked solution, step by step")


def reveal_working(steps, *, key: str, heading: str | None = _WORKED_SOLUTION) -> None:
    """Draw ``steps`` revealed up to the count kept under ``key``, with Previous / Next / All / Reset.

    Each revealed stage is a table (step, working, value); the stage being revealed also shows
    the sum it is building. Next and Previous answer PageDown and PageUp (a clicker) as well as
    clicks and the keyboard (Tab, then Enter or Space).
    """
    total = len(steps)
    shown = revealed_count(key, total)
    moved = st.session_state.get(_MOVED) == key
    if moved:
        del st.session_state[_MOVED]
    if heading:
        st.subheader(_(heading))
    previous_col, next_col, all_col, reset_col = st.columns(4)
    previous_col.button(_("Previous step"), key=f"{key}_previous", on_click=_move, args=(key, max(shown - 1, 0)),
                        disabled=shown == 0, icon=":material/arrow_back:", shortcut="PageUp", width="stretch")
    next_col.button(_("Next step"), key=f"{key}_next", on_click=_move, args=(key, min(shown + 1, total)),
                    disabled=shown == total, icon=":material/arrow_forward:", shortcut="PageDown", type="primary",
                    width="stretch")
    all_col.button(_("Show all"), key=f"{key}_all", on_click=_move, args=(key, total), disabled=shown == total,
                   icon=":material/done_all:", width="stretch")
    reset_col.button(_("Start again"), key=f"{key}_reset", on_click=_move, args=(key, 0), disabled=shown == 0,
                     icon=":material/restart_alt:", width="stretch")
    keep_in_link(key, str(shown), default="0")
    if shown == 0:
        st.caption(ngettext("{total} steps in {stages} stage.", "{total} steps in {stages} stages.",
                            len(stages(steps))).format(total=total, stages=len(stages(steps)))
                   + " " + _("Next (or PageDown) reveals the first."))
        return
    st.caption(_("Step {shown} of {total}: {label}. PageDown / PageUp move on and back.").format(
        shown=shown, total=total, label=steps[shown - 1].label))
    with st.container(key=f"{key}_rows"):
        _draw_revealed(steps, shown)
    if moved:
        script = (_BRING_INTO_VIEW_JS.replace("ROWS", json.dumps(f"{key}_rows")).replace("STEP", str(shown))
                  .replace("LABEL", json.dumps(steps[shown - 1].label)))
        st.html(script, unsafe_allow_javascript=True)


def _draw_revealed(steps, shown: int) -> None:
    """The revealed steps, one table per stage; the stage being revealed ends with the sum it builds."""
    for stage in stages(steps):
        rows = [(i, step) for i, step in enumerate(steps) if step.stage == stage and i < shown]
        if not rows:
            break
        lines = [f"**{stage}**", "", "| {step} | {working} | {value} |".format(
            step=_("step"), working=_("working"), value=_("value")), "|---|---|---|"]
        lines += [f"| {step.label} | {_cell(step.formula)} | **{tex_number(step.expected)}** |" for _, step in rows]
        building = next((step for i, step in enumerate(steps) if step.stage == stage and i >= shown and step.rule), None)
        partial = _partial(building, steps, shown) if building is not None else None
        if partial:
            lines.append("| {label} | {formula} | … |".format(
                label=_("{step} (so far)").format(step=building.label), formula=_cell(partial)))
        st.markdown("\n".join(lines))


def _exercise_steps(build, args: tuple, kwargs: dict):
    """The worked steps (no mistake alternatives) of the exercise ``build(*args, **kwargs)``; None
    when the input is not one (a ValueError the page reports elsewhere, or too long by hand)."""
    try:
        return steps_for(build(*args, **kwargs), mistakes=False)
    except ValueError:
        return None


def reveal_section(title: str, steps_of, *, key: str, exercise: str, caption: str = "") -> None:
    """The reveal in an expander whose steps are built and drawn only while it is open.

    ``steps_of()`` gives the steps (None: this input has no working by hand); ``exercise`` names
    them (e.g. a digest of the exercise): a step reached on another exercise is not carried over
    (see the module docstring). Closed, the
    expander costs a rerun nothing but its label, and the step reached stays in the link; a
    link at step 3 opens it there. Streamlit runs a lazy expander's body only when it is open
    (``on_change="rerun"``), so opening it is one rerun.
    """
    _keep_step_to_its_exercise(key, exercise)
    reached = str(current_value(key, "0") or "0")
    box = st.expander(title, expanded=revealed_count(key, 10**6) > 0, key=f"{key}_open", on_change="rerun",
                      icon=":material/slideshow:")
    with box:
        if not box.open:
            keep_in_link(key, reached, default="0")
            return
        steps = steps_of()
        if steps is None:
            st.caption(_("This input has no step-by-step working: see the messages above."))
            return
        if caption:
            st.caption(caption)
        reveal_working(steps, key=key, heading=None)


def reveal_exercise(build, *args, key: str, title: str, caption: str = "", **kwargs) -> None:
    """A worked page's step-by-step reveal: ``build(*args, **kwargs)`` makes the homework exercise
    of what the page shows (e.g. ``own_exercise``), in a :func:`reveal_section`.

    Nothing is worked for input the page already reports (a ValueError) or a list longer than a
    hand-worked table (:data:`~rankviz.teaching.homework.MAX_EXERCISE_LENGTH`): the page's own
    tables stand. The steps are built only while the reveal is open, and cached across sessions
    by the exercise's inputs: a class on the same link builds them once (the load benchmark
    found them the largest cost of a rerun).
    """
    exercise = f"{build.__module__}.{build.__qualname__}{args!r}{sorted(kwargs.items())!r}"
    reveal_section(title, lambda: cached_call(_exercise_steps, build, args, kwargs), key=key, exercise=exercise,
                   caption=caption)
