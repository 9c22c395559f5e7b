"""The physical prop: serial protocol, bridge, simulated prop and firmware.

pyserial is imported only inside this package.
"""
