"""The page the tiny app's fragment switches to: no fragment, so no timer."""

import streamlit as st

st.title("Other")
st.markdown(f"came from {st.query_params.get('from', 'nowhere')}")
