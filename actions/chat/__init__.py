"""The chat's actions: the only package the action server loads (``--actions actions.chat``).

rasa-sdk imports every module under the package it is given. Started on ``actions`` it would load
the whole content runtime (console, notifier, admin API, CLIs) into a process that answers only
Rasa's action calls; here it loads these modules and what they import, nothing more
(tests/actions/test_action_server_package.py counts it).
"""
