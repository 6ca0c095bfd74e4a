# Start-up: an empty program that only prints 0, so the figure is process and runtime start-up.
print(0)
