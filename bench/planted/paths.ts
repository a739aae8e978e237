/** Where the planted-facts corpus lives (this folder). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PLANTED_DIR = path.dirname(fileURLToPath(import.meta.url));
