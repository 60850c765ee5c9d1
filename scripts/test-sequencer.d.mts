import { BaseSequencer } from 'vitest/node';
export default class TetherSequencer extends BaseSequencer {}
