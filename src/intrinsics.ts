// The JavaScript built-ins the package uses, each read from the global object once, when the package
// loads. Nothing imports this module: the CommonJS build injects it (tsup.config.ts, esbuild's `inject`),
// so that every `Math.imul(…)`, `new Set()` or `Number.isFinite(…)` in that build reads a module binding
// rather than the global. Jest loads that build and runs each test file, and every module the file
// loads, in a vm context, whose global object answers each read through an interceptor: in a hashing
// loop that read costs more than the loop's own work (docs/decisions.md, "Built-ins read once"). Only
// built-ins that no test replaces are here: not Date, performance, process, console or the timers, which
// fake timers and spies swap.
const realm = globalThis;

const Math = realm.Math;
const JSON = realm.JSON;
const Object = realm.Object;
const Number = realm.Number;
const String = realm.String;
const Array = realm.Array;
const Set = realm.Set;
const Map = realm.Map;
const WeakMap = realm.WeakMap;
const Symbol = realm.Symbol;
const RegExp = realm.RegExp;
const Error = realm.Error;
const TypeError = realm.TypeError;
const RangeError = realm.RangeError;
const SyntaxError = realm.SyntaxError;
const ArrayBuffer = realm.ArrayBuffer;
const SharedArrayBuffer = realm.SharedArrayBuffer;
const Atomics = realm.Atomics;
const Int32Array = realm.Int32Array;
const Uint32Array = realm.Uint32Array;
const Uint16Array = realm.Uint16Array;
const Uint8Array = realm.Uint8Array;
const Float64Array = realm.Float64Array;
const isFinite = realm.isFinite;
const isNaN = realm.isNaN;

export {
  Math,
  JSON,
  Object,
  Number,
  String,
  Array,
  Set,
  Map,
  WeakMap,
  Symbol,
  RegExp,
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ArrayBuffer,
  SharedArrayBuffer,
  Atomics,
  Int32Array,
  Uint32Array,
  Uint16Array,
  Uint8Array,
  Float64Array,
  isFinite,
  isNaN,
};
