export * from './namespace.js';
export * from './pattern.js';
export * from './access.js';
export * from './environment.js';
export * from './promotion-request.js';
