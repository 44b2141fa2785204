import { destinationProblems, isLoopbackHost, isRefusedAddress, parseAllowedHosts } from './webhook-destination';

describe('WEBHOOK_ALLOWED_HOSTS patterns', () => {
  it('reads comma or space separated patterns, lower-cased and canonical', () => {
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(parseAllowedHosts(' , ')).toEqual([]);
    expect(parseAllowedHosts('Hooks.Slack.com, *.Example.ORG:8443  localhost:3000\n[0:0::1]:8443,[::1]')).toEqual([
      'hooks.slack.com',
      '*.example.org:8443',
      'localhost:3000',
      '[::1]:8443',
      '[::1]',
    ]);
    expect(parseAllowedHosts('Bücher.example 127.0.0.1:9000')).toEqual(['xn--bcher-kva.example', '127.0.0.1:9000']);
  });

  it('refuses a pattern that could never match, naming it and the variable', () => {
    for (const pattern of ['https://hooks.slack.com', 'host/path', 'user@host', '*', '*.', 'a*b.com', 'host:0', 'host:65536', 'host:']) {
      expect(() => parseAllowedHosts(`ok.example ${pattern}`)).toThrow(`WEBHOOK_ALLOWED_HOSTS: "${pattern}" is not host, host:port`);
    }
    for (const pattern of ['*.10.0.0.1', '*.[::1]', '[not-v6]', '::1']) expect(() => parseAllowedHosts(pattern)).toThrow(pattern);
  });
});

describe('webhook destinations', () => {
  const allowed = parseAllowedHosts('hooks.example.com *.office.example:8443 localhost:3000 127.0.0.1 [::1]:9000 169.254.169.254');

  it('allows https: to a listed host on the default port, and a listed port only when named', () => {
    expect(destinationProblems('https://hooks.example.com/services/T0/B0', allowed)).toEqual([]);
    expect(destinationProblems('https://HOOKS.example.com:443/x', allowed)).toEqual([]);
    expect(destinationProblems('https://hooks.example.com:8443/x', allowed)).toEqual([
      'host hooks.example.com:8443 is not in WEBHOOK_ALLOWED_HOSTS',
    ]);
    expect(destinationProblems('https://a.b.office.example:8443/', allowed)).toEqual([]);
    expect(destinationProblems('https://a.office.example/', allowed)).toEqual(['host a.office.example is not in WEBHOOK_ALLOWED_HOSTS']);
    expect(destinationProblems('https://office.example:8443/', allowed)).toEqual([
      'host office.example:8443 is not in WEBHOOK_ALLOWED_HOSTS',
    ]);
    expect(destinationProblems('https://evil-hooks.example.com/', allowed)).toEqual([
      'host evil-hooks.example.com is not in WEBHOOK_ALLOWED_HOSTS',
    ]);
    expect(destinationProblems('https://hooks.example.com.evil.net/', allowed)).toEqual([
      'host hooks.example.com.evil.net is not in WEBHOOK_ALLOWED_HOSTS',
    ]);
  });

  it('says when the list is empty: no host is allowed', () => {
    expect(destinationProblems('https://hooks.example.com/', [])).toEqual(['WEBHOOK_ALLOWED_HOSTS allows no host']);
  });

  it('allows http: only to an allowed loopback host', () => {
    expect(destinationProblems('http://localhost:3000/hook', allowed)).toEqual([]);
    expect(destinationProblems('http://127.0.0.1/hook', allowed)).toEqual([]);
    expect(destinationProblems('http://[::1]:9000/hook', allowed)).toEqual([]);
    expect(destinationProblems('http://localhost:3001/', allowed)).toEqual(['host localhost:3001 is not in WEBHOOK_ALLOWED_HOSTS']);
    expect(destinationProblems('http://hooks.example.com/', allowed)).toEqual([
      'the webhook URL must be https: (http: only to a loopback host: localhost, 127.0.0.0/8, [::1])',
    ]);
  });

  it('refuses other schemes and texts that are not URLs, without echoing them', () => {
    expect(destinationProblems('ftp://hooks.example.com/', allowed)).toEqual(['the webhook URL must be https: (ftp: is not)']);
    expect(destinationProblems('file:///etc/passwd', allowed)).toEqual(['the webhook URL must be https: (file: is not)']);
    expect(destinationProblems('hooks.example.com/x', allowed)).toEqual(['the webhook URL is not a URL']);
    expect(destinationProblems('https://user:hunter2@', allowed)).toEqual(['the webhook URL is not a URL']);
  });

  it('refuses credentials in the URL without naming them', () => {
    const problems = destinationProblems('https://alice:s3cr3t-pw@hooks.example.com/x', allowed);
    expect(problems).toEqual(['the webhook URL must not carry credentials (user:password@)']);
    expect(problems.join()).not.toMatch(/alice|s3cr3t/);
    expect(destinationProblems('https://token-only@hooks.example.com/x', allowed)).toEqual([
      'the webhook URL must not carry credentials (user:password@)',
    ]);
  });

  it('refuses a literal refused address even when listed, in any spelling URLs accept', () => {
    const refused = ['169.254.169.254 is a refused address (link-local, cloud metadata or unspecified)'];
    expect(destinationProblems('https://169.254.169.254/latest/meta-data/', allowed)).toEqual(refused);
    expect(destinationProblems('https://0xa9.0xfe.0xa9.0xfe/', allowed)).toEqual(refused);
    expect(destinationProblems('https://2852039166/', allowed)).toEqual(refused);
    expect(destinationProblems('https://[::ffff:169.254.169.254]/', ['[::ffff:169.254.169.254]'])).toEqual([
      '[::ffff:a9fe:a9fe] is a refused address (link-local, cloud metadata or unspecified)',
    ]);
  });

  it('reports every problem at once', () => {
    expect(destinationProblems('http://u:p@10.0.0.1:8080/', [])).toEqual([
      'the webhook URL must be https: (http: only to a loopback host: localhost, 127.0.0.0/8, [::1])',
      'the webhook URL must not carry credentials (user:password@)',
      'WEBHOOK_ALLOWED_HOSTS allows no host',
    ]);
  });
});

describe('refused addresses', () => {
  it('refuses IPv4 link-local, Alibaba metadata and 0.0.0.0/8, at the edges of each range', () => {
    for (const ip of ['169.254.169.254', '169.254.0.0', '169.254.255.255', '100.100.100.200', '0.0.0.0', '0.255.255.255'])
      expect([ip, isRefusedAddress(ip)]).toEqual([ip, true]);
    for (const ip of ['169.253.255.255', '169.255.0.0', '100.100.100.199', '100.100.100.201', '1.0.0.0', '10.0.0.1', '127.0.0.1'])
      expect([ip, isRefusedAddress(ip)]).toEqual([ip, false]);
  });

  it('refuses IPv6 link-local, AWS metadata and ::, and the IPv6 forms of refused IPv4 addresses', () => {
    const refused = ['fe80::1', 'febf:ffff::1', 'fe80::1%eth0', 'fd00:ec2::254', 'FD00:EC2:0:0:0:0:0:254', '::', '0:0:0:0:0:0:0:0'];
    const mapped = ['::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '[::ffff:a9fe:a9fe]', '::ffff:100.100.100.200', '::ffff:0.0.0.0'];
    for (const ip of [...refused, ...mapped, '64:ff9b::169.254.169.254']) expect([ip, isRefusedAddress(ip)]).toEqual([ip, true]);
    const allowed = [
      'fe7f:ffff::1',
      'fec0::1',
      'fd00:ec2::253',
      'fd00:ec2::1:254',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fd:a9fe',
      '2001:db8::1',
    ];
    for (const ip of allowed) expect([ip, isRefusedAddress(ip)]).toEqual([ip, false]);
  });

  it('is false for text that is not an IP address', () => {
    for (const text of ['', 'localhost', 'metadata.google.internal', '169.254.169', '::ffff:169.254.169'])
      expect(isRefusedAddress(text)).toBe(false);
  });

  it('knows the loopback hosts plain http: may reach', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.255.254', '[::1]', '::1', '[0:0:0:0:0:0:0:1]'])
      expect([host, isLoopbackHost(host)]).toEqual([host, true]);
    for (const host of ['localhost.example', '128.0.0.1', '126.255.255.255', '[::2]', '::ffff:127.0.0.1', 'example.com'])
      expect([host, isLoopbackHost(host)]).toEqual([host, false]);
  });
});
