// The README read as text by test/readme-registry.test.ts (Vite's ?raw import).
declare module '*.md?raw' {
  const text: string;
  export default text;
}
