"""rankviz teaching app: entry point (page config and navigation only)."""

import streamlit as st

st.set_page_config(page_title="rankviz", page_icon="📊", layout="wide")
st.title("rankviz")
st.write("Ranking metrics that explain themselves. The pages are being built.")
