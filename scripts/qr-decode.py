"""qr-decode.py: reads a QR code with zxing-cpp, an independent decoder, for the console's tests.

Standard input: the code's modules, one row a line, '1' dark and '0' light (no quiet zone). The script draws them
as a grayscale image (8 pixels a module, a quiet zone of 4 modules), decodes it, and prints the text as hex (UTF-8)
on the first line and the symbol's version on the second. Exit status 1 when nothing is found.
"""
import sys

import zxingcpp

rows = [line.strip() for line in sys.stdin if line.strip()]
scale, quiet = 8, 4
side = (len(rows) + 2 * quiet) * scale
pixels = bytearray(b"\xff" * (side * side))
for y, row in enumerate(rows):
    for x, module in enumerate(row):
        if module == "1":
            for dy in range(scale):
                start = ((y + quiet) * scale + dy) * side + (x + quiet) * scale
                pixels[start:start + scale] = b"\x00" * scale
found = zxingcpp.read_barcodes(memoryview(bytes(pixels)).cast("B", (side, side)), formats=zxingcpp.BarcodeFormat.QRCode)
if not found:
    sys.exit("no QR code found")
print(found[0].bytes.hex())
print(found[0].symbology_identifier, getattr(found[0], "version", ""))
