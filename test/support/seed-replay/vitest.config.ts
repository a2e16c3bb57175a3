import { defineConfig } from 'vitest/config';
import project from '../../../vitest.config.ts';

// The project's own configuration (its seed, its setup file), running only the failing fixture.
export default defineConfig({ ...project, test: { ...project.test, include: ['test/support/seed-replay/*.fixture.ts'] } });
