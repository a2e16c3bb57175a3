// Draws the app icon (build/icon.png, 512×512): a parcel on the dock's green. Run once after a change:
// `node scripts/make-icon.ts`. The PNG is committed; packaging reads it.
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

const size = 512;
const png = new PNG({ width: size, height: size });
for (let y = 0; y < size; y += 1) {
  for (let x = 0; x < size; x += 1) {
    const i = (y * size + x) * 4;
    const dx = Math.abs(x - size / 2);
    const dy = Math.abs(y - size / 2);
    const inTile = Math.max(dx, dy) < 240;
    const inBox = dx < 150 && dy < 120;
    const onTape = inBox && (dx < 18 || Math.abs(y - 170) < 10);
    const [r, g, b] = onTape ? [240, 240, 230] : inBox ? [196, 140, 80] : inTile ? [22, 110, 80] : [0, 0, 0];
    png.data[i] = r;
    png.data[i + 1] = g;
    png.data[i + 2] = b;
    png.data[i + 3] = inTile ? 255 : 0;
  }
}
writeFileSync(new URL('../build/icon.png', import.meta.url), PNG.sync.write(png));
