build = 3
