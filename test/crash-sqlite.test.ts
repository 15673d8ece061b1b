import { crashSafety } from './support/crash-suite.js';

crashSafety('sqlite');
