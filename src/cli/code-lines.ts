// Lines of a user's code that the CLI prints or writes.

/**
 * An import statement of the user's code, as text. Built from its parts so that the house rule
 * that reads this file's own imports (test/house/structure.test.ts) does not take it for one.
 * @internal
 */
export function importLine(names: string, module: string): string {
  return `import ${names} from '${module}'`
}

/** A CommonJS `require` of the user's code, as text. @internal */
export function requireLine(names: string, module: string): string {
  return `const ${names} = require('${module}')`
}
