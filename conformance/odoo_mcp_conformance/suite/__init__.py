"""The pytest module that binds every feature file (run by the kit, not by our test suite)."""
