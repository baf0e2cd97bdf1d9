"""Entry point of the ternary app: `streamlit run app.py`."""

import streamlit as st

st.set_page_config(page_title="ternary", layout="wide")
st.title("Ternary decision trees")
st.write("Decision trees that say where they are unsure.")
