#!/usr/bin/env python3
"""Waits for the partner under three ways of sharing 2 cores among 4 replicas (random pairs per step).

Each replica's step needs T ms of one core (normal, sd given); after it the replica waits until its
partner of that step has finished the same step. 'share': the kernel's fair sharing (every runnable
replica gets cores/runnable of a core). 'fifo': at most one replica per core, turns in arrival order,
a replica keeps its core until its compute ends. 'group': the same, turns ordered by (step, the
step's group), so the two members of a group are first in line together. Prints the mean wait per
step and its share of the step's wall time. Usage: python3 turns-sim.py
"""
import random


def simulate(policy, steps=400, n=4, cores=2, t_ms=32.0, sd_ms=3.0, seed=1, dt=0.05):
    rng = random.Random(seed)
    partner, group = [], []
    for _ in range(steps):
        order = list(range(n))
        rng.shuffle(order)
        p, g = [0] * n, [0] * n
        for i in range(0, n, 2):
            a, b = order[i], order[i + 1]
            p[a], p[b], g[a], g[b] = b, a, min(a, b), min(a, b)
        partner.append(p)
        group.append(g)
    need = [[max(1.0, rng.gauss(t_ms, sd_ms)) for _ in range(steps)] for _ in range(n)]
    step, left = [0] * n, [need[r][0] for r in range(n)]
    state = ['ready'] * n  # ready (wants a core), run (has one), wait (for the partner), done
    queued_at, arrived = [0.0] * n, [0.0] * n
    waited, now = 0.0, 0.0
    while min(step) < steps:
        if policy == 'share':
            runnable = [r for r in range(n) if state[r] in ('ready', 'run')]
            speed = {r: min(1.0, cores / len(runnable)) for r in runnable}
        else:
            running = [r for r in range(n) if state[r] == 'run']
            ready = [r for r in range(n) if state[r] == 'ready']
            key = (lambda r: queued_at[r]) if policy == 'fifo' else (lambda r: (step[r], group[step[r]][r]))
            for r in sorted(ready, key=key)[:cores - len(running)]:
                state[r] = 'run'
            speed = {r: 1.0 for r in range(n) if state[r] == 'run'}
        for r, v in speed.items():
            left[r] -= v * dt
        now += dt
        for r in speed:
            if left[r] <= 0:
                state[r], arrived[r] = 'wait', now
        for r in range(n):
            q = partner[step[r]][r] if state[r] == 'wait' else None
            if q is not None and state[q] == 'wait' and step[q] == step[r]:
                for x in (r, q):
                    waited += now - arrived[x]
                    step[x] += 1
                    if step[x] < steps:
                        left[x], state[x], queued_at[x] = need[x][step[x]], 'ready', now
                    else:
                        state[x] = 'done'
    wall, wait = now / steps, waited / (n * steps)
    return wall, wait


if __name__ == '__main__':
    for policy in ('share', 'fifo', 'group'):
        for sd in (1.0, 3.0, 6.0):
            wall, wait = simulate(policy, sd_ms=sd)
            print(f'{policy:5} sd {sd:3.1f} ms: wall {wall:5.1f} ms/step, wait {wait:5.2f} ms/step, share {wait / wall:.3f}')
