# An unbalanced binary search tree map: iterative insert, lookup, in-order walk via a generator, and range counts.


class TreeNode(object):
    def __init__(self, key, value):
        self.key = key
        self.value = value
        self.left = None
        self.right = None


class TreeMap(object):
    def __init__(self):
        self.root = None
        self.count = 0

    def insert(self, key, value):
        parent, node = None, self.root
        while node is not None:
            if key == node.key:
                node.value += value
                return
            parent, node = node, (node.left if key < node.key else node.right)
        fresh = TreeNode(key, value)
        if parent is None:
            self.root = fresh
        elif key < parent.key:
            parent.left = fresh
        else:
            parent.right = fresh
        self.count += 1

    def lookup(self, key, default=0):
        node = self.root
        while node is not None:
            if key == node.key:
                return node.value
            node = node.left if key < node.key else node.right
        return default

    def walk(self):
        stack, node = [], self.root
        while stack or node is not None:
            while node is not None:
                stack.append(node)
                node = node.left
            node = stack.pop()
            yield node.key, node.value
            node = node.right


def main():
    tree, seed = TreeMap(), 2024
    for i in range(400000):
        seed = (seed * 48271) % 2147483647
        tree.insert(seed % 300000, i % 13 + 1)
    found = 0
    for k in range(0, 600000, 3):
        found += tree.lookup(k)
    in_range = sum(v for k, v in tree.walk() if 100000 <= k < 200000)
    print("nodes", tree.count, "found", found, "in range", in_range)


if __name__ == "__main__":
    main()
