"""Arboretum home page."""

import streamlit as st

st.set_page_config(page_title="Arboretum", page_icon="🌳", layout="wide")
st.title("Arboretum")
st.write("Grow decision trees and random forests live, and see how they decide.")
