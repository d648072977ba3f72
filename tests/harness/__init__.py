"""Code shared by the test suite and the benchmarks: bench/ imports it, tests never import bench/.

- processes: the chain's processes seen from outside, through /proc;
- servers: the local page and its server, a private workspace, `tabsight mcp` as an MCP server;
- calls: how an answer's text is read, a wrong one reported, and call times summed up;
- soak: the soak (tests/test_soak.py runs a short one, bench/soak_bench.py the full one).
"""
