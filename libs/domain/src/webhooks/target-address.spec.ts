import { addressLiteralOf, classifyAddress, parseIpv6 } from './target-address';

describe('webhook target address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.10.1', 'link_local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['::127.0.0.1', 'reserved'],
    ['fd00::1', 'unique_local'],
    ['fc12:3456::1', 'unique_local'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['fec0::1', 'reserved'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('refuses %s (%s)', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::',
  ])('accepts the public address %s', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });

  it('treats what is not an address literal as invalid', () => {
    for (const text of [
      'example.com',
      '1.2.3',
      '1.2.3.256',
      '01.2.3.4',
      '1::2::3',
      '12345::',
      '1:2:3:4:5:6:7:8:9',
      ':::',
      '',
    ]) {
      expect(classifyAddress(text)).toBe('invalid');
    }
  });

  it('parses compressed IPv6 forms to the same value', () => {
    expect(parseIpv6('::ffff:127.0.0.1')).toBe(parseIpv6('0:0:0:0:0:ffff:7f00:0001'));
    expect(parseIpv6('2001:db8::')).toBe(parseIpv6('2001:db8:0:0:0:0:0:0'));
  });

  it('finds the address literal of a URL host, brackets included', () => {
    expect(addressLiteralOf('[::1]')).toBe('::1');
    expect(addressLiteralOf(new URL('https://[::ffff:127.0.0.1]/').hostname)).toBe('::ffff:7f00:1');
    expect(addressLiteralOf(new URL('https://2130706433/').hostname)).toBe('127.0.0.1');
    expect(addressLiteralOf(new URL('https://0x7f.1/').hostname)).toBe('127.0.0.1');
    expect(addressLiteralOf('hooks.example.com')).toBeNull();
  });
});
