"""A tiny app for the protocol client's tests: a fragment on a timer, and a page switch the
server makes from inside it (as the class mode's follower check does).

``?go=1``: the fragment's third run switches to the other page with ``from=home``.
"""

import streamlit as st

st.title("Home")
st.session_state["page_runs"] = st.session_state.get("page_runs", 0) + 1
st.slider("x", 0, 10, key="x")


@st.fragment(run_every=0.3)
def tick() -> None:
    ticks = st.session_state.get("ticks", 0) + 1
    st.session_state["ticks"] = ticks
    st.markdown(f"tick {ticks}, page runs {st.session_state['page_runs']}")
    if st.query_params.get("go") and ticks >= 3:
        st.switch_page("pages/other.py", query_params={"from": "home"})


tick()
