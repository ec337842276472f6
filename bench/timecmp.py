#!/usr/bin/env python3
"""timecmp.py RUNS CMD_A CMD_B — runs two shell commands alternately (warm
cache, two warm-up runs each, order swapped every run so that background
load hits both alike) and prints: median wall ms of A, of B, median CPU ms
(user+sys) of A, of B."""
import os, resource, statistics, subprocess, sys, time

def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return (t1 - t0) * 1000, cpu * 1000

runs = int(sys.argv[1]); a, b = sys.argv[2], sys.argv[3]
for _ in range(2):
    run(a); run(b)
wa, wb, ca, cb = [], [], [], []
for i in range(runs):
    order = [(a, wa, ca), (b, wb, cb)]
    if i % 2:
        order.reverse()
    for cmd, w, c in order:
        x, y = run(cmd)
        w.append(x); c.append(y)
m = statistics.median
print("%.1f %.1f %.1f %.1f" % (m(wa), m(wb), m(ca), m(cb)))
