def build():
    while True:
        pass
