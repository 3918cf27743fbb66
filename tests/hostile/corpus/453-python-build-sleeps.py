import time

def build():
    time.sleep(3600)
