import { LineAssembler } from '../../../../services/mud/telnet/lineAssembler';

describe('LineAssembler', () => {
  const lines = (assembler: LineAssembler, ...chunks: string[]) =>
    chunks.flatMap((chunk) => assembler.push(Buffer.from(chunk, 'latin1')));

  it('ends lines at CR LF, CR NUL, LF and CR, across chunks', () => {
    const assembler = new LineAssembler();
    expect(lines(assembler, 'a\r', '\nb\r\0c\nd\re', '\r\n')).toEqual([
      { kind: 'line', text: 'a' },
      { kind: 'line', text: 'b' },
      { kind: 'line', text: 'c' },
      { kind: 'line', text: 'd' },
      { kind: 'line', text: 'e' },
    ]);
  });

  it('decodes UTF-8 split across chunks, replaces invalid bytes and strips control characters', () => {
    const assembler = new LineAssembler();
    const smile = Buffer.from('say 😀\r\n');
    expect([...assembler.push(smile.subarray(0, 6)), ...assembler.push(smile.subarray(6))]).toEqual([
      { kind: 'line', text: 'say 😀' },
    ]);
    expect(assembler.push(Buffer.from([0x61, 0xff, 0x1b, 0x5b, 0x07, 0x62, 0x0a]))).toEqual([
      { kind: 'line', text: 'a\uFFFD[b' },
    ]);
  });

  it('drops a line over the cap whole and reports it once, holding no more than the cap', () => {
    const assembler = new LineAssembler(8);
    expect(lines(assembler, '12345', '6789', 'abc')).toEqual([]);
    expect(lines(assembler, 'def\r\nok\r\n')).toEqual([
      { kind: 'overlong', limit: 8 },
      { kind: 'line', text: 'ok' },
    ]);
    expect(lines(assembler, '12345678\n')).toEqual([{ kind: 'line', text: '12345678' }]);
  });
});
