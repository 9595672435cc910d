export { readWordDocument } from './index';
export { withinWordLimits } from './limits';
export { renderWordDocument } from './layout/render';
