/** Thrown when a config file cannot be edited safely; the message tells the user what to do. */
export class ConfigEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigEditError';
  }
}
