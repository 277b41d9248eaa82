"""Helpers for Pagehost's benchmarks: processes and memory, a WebSocket client, the two browsers."""
