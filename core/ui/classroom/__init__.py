"""Class mode's Streamlit side: the sidebar's class panel, following the teacher, the polls.

- :mod:`core.ui.classroom.panel`: start, join or leave a class; follow the teacher; a
  multiple-choice question at the top of any page.
- :mod:`core.ui.classroom.split`: the step page's "where will the tree split next?".
- ``class_check.js``: the follower's check, a script in the sidebar.

The class itself (its model, store and polls) is :mod:`core.classroom`, pure.
"""
