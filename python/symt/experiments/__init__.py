"""IPC-style experiments: suites, algorithms, Fast Downward Lab runs, reports and plots."""
