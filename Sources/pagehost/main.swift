import PagehostCore
print("pagehost")
