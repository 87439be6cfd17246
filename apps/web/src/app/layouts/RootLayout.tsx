// The frame around every page: fixed header, the page, the footer, on the theme background.
import { Outlet } from 'react-router';
import { Footer } from './Footer.js';
import { Header } from './Header.js';

export function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-gray-100 text-gray-900 dark:bg-gray-900 dark:text-gray-100">
      <Header />
      <main className="flex-1 px-4 pt-24 pb-16">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
