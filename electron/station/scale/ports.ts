import type { SerialPortList } from '#shared/api/scale.ts';

/** The serial ports the station's system has, for choosing a scale's port; none where serial ports cannot be opened. */
export async function listSerialPorts(): Promise<SerialPortList> {
  try {
    const { SerialPort } = await import('serialport');
    const ports = await SerialPort.list();
    return {
      data: ports.map((port) => ({
        path: port.path,
        manufacturer: port.manufacturer ?? null,
        vendor_id: port.vendorId ?? null,
        product_id: port.productId ?? null,
      })),
    };
  } catch {
    return { data: [] };
  }
}
