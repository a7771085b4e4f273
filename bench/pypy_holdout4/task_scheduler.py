# Simulate a job scheduler using a binary min-heap stored in a plain list.

def heap_push(heap, item):
    heap.append(item)
    i = len(heap) - 1
    while i > 0:
        parent = (i - 1) // 2
        if heap[parent] <= heap[i]:
            break
        heap[parent], heap[i] = heap[i], heap[parent]
        i = parent


def heap_pop(heap):
    last = heap.pop()
    if not heap:
        return last
    top = heap[0]
    heap[0] = last
    n = len(heap)
    i = 0
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        child = left
        if left + 1 < n and heap[left + 1] < heap[left]:
            child = left + 1
        if heap[i] <= heap[child]:
            break
        heap[i], heap[child] = heap[child], heap[i]
        i = child
    return top


def simulate(num_jobs, seed=12345):
    heap = []
    state = seed
    clock = 0
    total_wait = 0
    for job_id in range(num_jobs):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        priority = state % 97
        heap_push(heap, (priority, job_id, clock))
        clock += 1
        if job_id % 3 != 0 and heap:
            prio, jid, submitted = heap_pop(heap)
            total_wait += clock - submitted
    while heap:
        prio, jid, submitted = heap_pop(heap)
        clock += 1
        total_wait += clock - submitted
    return clock, total_wait


if __name__ == "__main__":
    clock, wait = simulate(200000)
    print("finished at tick", clock, "total wait", wait)
