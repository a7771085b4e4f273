# Tic-tac-toe game-tree search: plain minimax counting nodes, memoised minimax on tuple boards, and self-play from every opening pair.

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def winner(board):
    for a, b, c in LINES:
        v = board[a]
        if v != 0 and v == board[b] and v == board[c]:
            return v
    return 0


def minimax_plain(board, player, counter):
    counter[0] += 1
    w = winner(board)
    if w:
        return w
    if 0 not in board:
        return 0
    best = -2 * player
    for i in range(9):
        if board[i] == 0:
            board[i] = player
            score = minimax_plain(board, -player, counter)
            board[i] = 0
            if player == 1 and score > best:
                best = score
            elif player == -1 and score < best:
                best = score
            if best == player:
                break
    return best


def minimax_memo(board, player, memo):
    key = (board, player)
    if key in memo:
        return memo[key]
    w = winner(board)
    if w:
        result = w
    elif 0 not in board:
        result = 0
    else:
        result = -2 * player
        for i in range(9):
            if board[i] == 0:
                child = board[:i] + (player,) + board[i + 1:]
                score = minimax_memo(child, -player, memo)
                if player == 1:
                    result = max(result, score)
                else:
                    result = min(result, score)
    memo[key] = result
    return result


def best_move(board, player, memo):
    best_i = -1
    best_s = -2 * player
    for i in range(9):
        if board[i] == 0:
            child = board[:i] + (player,) + board[i + 1:]
            s = minimax_memo(child, -player, memo)
            if best_i < 0 or (player == 1 and s > best_s) or (player == -1 and s < best_s):
                best_i = i
                best_s = s
    return best_i


def main():
    counter = [0]
    plain = minimax_plain([0] * 9, 1, counter)
    memo = {}
    memo_value = minimax_memo((0,) * 9, 1, memo)
    draws = 0
    wins = 0
    for first in range(9):
        for second in range(9):
            if first == second:
                continue
            board = [0] * 9
            board[first] = 1
            board[second] = -1
            board = tuple(board)
            player = 1
            while winner(board) == 0 and 0 in board:
                i = best_move(board, player, memo)
                board = board[:i] + (player,) + board[i + 1:]
                player = -player
            if winner(board) == 0:
                draws += 1
            else:
                wins += 1
    print("plain=%d nodes=%d memo=%d states=%d draws=%d wins=%d" % (plain, counter[0], memo_value, len(memo), draws, wins))


main()
