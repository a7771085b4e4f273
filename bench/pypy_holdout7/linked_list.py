# A singly linked list of small Node objects: sorted insertion, reversal and removal of multiples.


class Node(object):
    def __init__(self, value, next_node=None):
        self.value = value
        self.next = next_node


def insert_sorted(head, value):
    node = Node(value)
    if head is None or value <= head.value:
        node.next = head
        return node
    cur = head
    while cur.next is not None and cur.next.value < value:
        cur = cur.next
    node.next = cur.next
    cur.next = node
    return head


def reverse(head):
    prev = None
    while head is not None:
        head.next, prev, head = prev, head, head.next
    return prev


def remove_multiples(head, k):
    dummy = Node(0, head)
    cur = dummy
    while cur.next is not None:
        if cur.next.value % k == 0:
            cur.next = cur.next.next
        else:
            cur = cur.next
    return dummy.next


def main():
    result = 0
    for rnd in range(40):
        head = None
        seed = rnd + 1
        for _ in range(300):
            seed = (seed * 75 + 74) % 65537
            head = insert_sorted(head, seed % 5000)
        head = remove_multiples(reverse(head), 3 + rnd % 5)
        h, n = 0, 0
        while head is not None:
            h, n, head = (h * 31 + head.value) % 1000003, n + 1, head.next
        result = (result + h * n) % 1000000007
    print("linked list checksum", result)


if __name__ == "__main__":
    main()
