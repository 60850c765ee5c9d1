// Splits a command line into argv the way a POSIX shell would for a simple command: whitespace
// separates words, single quotes are literal, double quotes allow \" \\ \$ \` escapes, a backslash
// outside quotes escapes the next character. No expansion, pipes or redirections.
import { ClientError } from '../../client-error';

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw unterminated('single');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= line.length) throw unterminated('double');
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
          if (line[i + 1] !== '\n') word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === '\\') {
      if (i + 1 >= line.length)
        throw new ClientError('invalidArgument', 'The command line ends with a lone backslash.');
      if (line[i + 1] !== '\n') {
        word += line[i + 1];
        inWord = true;
      }
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new ClientError('invalidArgument', 'The command line is empty.');
  return words;
}

function unterminated(kind: string): ClientError {
  return new ClientError('invalidArgument', `The command line has an unterminated ${kind} quote.`);
}
